/** Each simulator with its control plane on against CONTROL_API=off. */
export default { title: 'Control-plane cost', order: 4 };
