/** Sizes of the container images as the image build recorded them. */
export default { title: 'Image sizes', order: 9 };
