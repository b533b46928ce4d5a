// Plain JavaScript: a type annotation does not parse here.
export default {
  description: 'Format a date.',
  parameters: { type: 'object', properties: { date: { type: 'string' } } },
  async execute(args: { date: string }) {
    return args.date
  },
}
