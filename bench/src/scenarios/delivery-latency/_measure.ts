/** One message at a time from POST to every client, ours against the bare forwarder. */
export default { title: 'Delivery latency', order: 1 };
