function createTool(pi) {
  return { name: 'crm_note', execute: 'nope' }
}

export { createTool as default }
