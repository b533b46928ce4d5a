exports.tool = {
  description: 'Write a CRM note.',
  parameters: { type: 'object', properties: {} },
  execute() {
    return 'ok'
  },
}
