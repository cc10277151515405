/** What a suite pays per test: a reset, a sandbox, the first request after a reset. */
export default { title: 'Per-test costs', order: 7 };
