// The recorder: a client of the customer interface that writes what it receives as recordings.
export {};
