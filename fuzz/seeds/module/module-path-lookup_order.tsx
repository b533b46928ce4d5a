export default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return 'ok' } }
