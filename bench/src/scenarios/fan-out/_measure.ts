/** Open-loop fan-out to many clients held by client processes, ours against a bare ws broadcast. */
export default { title: 'Fan-out', order: 2 };
