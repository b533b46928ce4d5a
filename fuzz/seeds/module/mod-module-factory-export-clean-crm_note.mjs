function describe() {
  return 'Write a CRM note.'
}

const tool = {
  description: 'Write a CRM note.',
  parameters: { type: 'object', properties: {} },
  execute: async () => describe(),
}

export { tool as default }
