/** Real, minimal (1×1 pixel) images for upload tests: uploads are accepted by their content only. */
export const IMAGES = {
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
  jpeg: Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
  webp: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
  gif: Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'),
};

/** A real PNG of exactly `size` bytes (trailing bytes after its end, which decoders ignore), for size limits. */
export function pngBytes(size = IMAGES.png.length): Buffer {
  if (size < IMAGES.png.length) throw new Error(`a PNG has at least ${IMAGES.png.length} bytes`);
  return Buffer.concat([IMAGES.png, Buffer.alloc(size - IMAGES.png.length, 7)]);
}

/** A PNG as a browser's FormData sends it. */
export const png = (size?: number) => new Blob([pngBytes(size)], { type: 'image/png' });
