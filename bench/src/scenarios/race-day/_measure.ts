/** Race days (docs/race-days.md): generating days, the command, a day's cost to a start, a plan's size. */
export default { title: 'Race days', order: 8 };
