/** Accessibility helpers shared by the pages. */

/** Style of text hidden on screen but read by screen readers (e.g. the header of an actions column). */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const
