/** Page and filtered reads of stores of each size, ours against bare Node and the peers. */
export default { title: 'Read throughput', order: 3 };
