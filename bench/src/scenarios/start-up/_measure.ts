/** From spawn to the first /health answer, ours against bare Node and the peers; startSimulators() in-process. */
export default { title: 'Start-up', order: 5 };
