import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { focusVisibleStyles, reflowStyles } from './layout/focusStyles';

/**
 * A checkbox given an `aria-label` (react-admin's Datagrid row selection does so) labels its input,
 * not the wrapping span: a span may not carry aria-label, and the input would have no name
 * (WCAG 4.1.2). The component's own input props are kept.
 */
type CheckboxOwner = { 'aria-label'?: string; inputProps?: Record<string, unknown> };
const checkboxSlotProps = {
  root: (o: CheckboxOwner) => (o['aria-label'] ? { 'aria-label': undefined } : {}),
  input: (o: CheckboxOwner) => ({ ...o.inputProps, ...(o['aria-label'] ? { 'aria-label': o['aria-label'] } : {}) }),
};

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: '#1f5f8b' },
    // Darker than MUI's defaults so that white text on them, and they as text on the page's
    // background or on a hovered or selected row, reach 4.5:1 (WCAG 1.4.3).
    secondary: { main: '#26695a' },
    success: { main: '#256d29' },
    error: { main: '#c62828' },
    warning: { main: '#a84f00' },
    info: { main: '#01579b' },
    background: { default: '#f5f6f8' },
  },
  components: {
    ...defaultTheme.components,
    MuiTextField: { defaultProps: { variant: 'outlined', size: 'small' } },
    MuiCssBaseline: { styleOverrides: { ...focusVisibleStyles, ...reflowStyles } },
    MuiCheckbox: { defaultProps: { slotProps: checkboxSlotProps as never } },
    // A loading spinner is a progressbar: it needs a name (WCAG 4.1.2); a caller may give a better one.
    MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
    MuiLinearProgress: { defaultProps: { 'aria-label': 'Loading' } },
    // Initials on an avatar without a picture: white on MUI's grey 400 is 1.9:1.
    MuiAvatar: { styleOverrides: { colorDefault: { backgroundColor: '#616161' } } },
    // The hint under a disabled field still informs (e.g. "Up to 72"): it keeps its readable colour.
    MuiFormHelperText: { styleOverrides: { root: { '&.Mui-disabled': { color: 'rgba(0, 0, 0, 0.6)' } } } },
  },
};
