/**
 * A visible focus ring for keyboard users on every control (global styles of the theme's
 * CssBaseline): native :focus-visible for links and tabbable boxes, MUI's .Mui-focusVisible for
 * its buttons, checkboxes, radios, switches, menu items and list buttons (their inputs are hidden).
 */
const RING = '#1f5f8b';

export const focusVisibleStyles = {
  // Doubled class: above ButtonBase's own `outline: 0`.
  '*:focus-visible, .Mui-focusVisible.Mui-focusVisible': { outline: `3px solid ${RING}`, outlineOffset: '2px' },
  // Containers focused by the code (a dialog, a popover, a menu) are not controls: no ring around them.
  '[tabindex="-1"]:focus-visible:not(.Mui-focusVisible)': { outline: 'none' },
  // Text fields and selects show their focus with their own thick border.
  '.MuiInputBase-input:focus-visible': { outline: 'none' },
  // Items of menus and lists: inside their edges, where the paper does not cut the ring off.
  '.MuiMenuItem-root.Mui-focusVisible.Mui-focusVisible, .MuiListItemButton-root.Mui-focusVisible.Mui-focusVisible': { outlineOffset: '-3px' },
  // On the blue bar and on filled alerts (toasts): white.
  '.MuiAppBar-root :focus-visible, .MuiAppBar-root .Mui-focusVisible.Mui-focusVisible, .MuiAlert-filled :focus-visible, .MuiAlert-filled .Mui-focusVisible.Mui-focusVisible': {
    outlineColor: '#fff',
  },
} as const;
