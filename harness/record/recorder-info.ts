/** The creator written into every capture the recorder makes (HAR log.creator). */
export const RECORDER = { name: 'petstore-conformance recorder', version: '1.0.0' } as const;
