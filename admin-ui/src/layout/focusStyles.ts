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
  // Rows that open a record (above TableRow's own `outline: 0`), inside their edges.
  '.MuiTableRow-root.MuiTableRow-root:focus-visible': { outline: `3px solid ${RING}`, outlineOffset: '-3px' },
  // Items of menus and lists: inside their edges, where the paper does not cut the ring off.
  '.MuiMenuItem-root.Mui-focusVisible.Mui-focusVisible, .MuiListItemButton-root.Mui-focusVisible.Mui-focusVisible': { outlineOffset: '-3px' },
  // On the blue bar and on filled alerts (toasts): white.
  '.MuiAppBar-root :focus-visible, .MuiAppBar-root .Mui-focusVisible.Mui-focusVisible, .MuiAlert-filled :focus-visible, .MuiAlert-filled .Mui-focusVisible.Mui-focusVisible': {
    outlineColor: '#fff',
  },
} as const;

/** Layout rules for narrow windows (tablets, 200 % zoom): a wide list scrolls in its own box, not the page. */
export const reflowStyles = {
  '.RaDatagrid-tableWrapper': { overflowX: 'auto', maxWidth: '100%' },
  // A list's main column is a flex item: without this it grows to its table's width.
  '.RaList-main': { minWidth: 0 },
} as const;
