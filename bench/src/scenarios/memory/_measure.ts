/** RSS and heap per stored event and queued message, and the caps under sustained injection. */
export default { title: 'Memory', order: 6 };
