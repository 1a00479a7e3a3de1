import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { focusVisibleStyles, reflowStyles } from './layout/focusStyles';

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: '#1f5f8b' },
    secondary: { main: '#2e7d6b' },
    background: { default: '#f5f6f8' },
  },
  components: {
    ...defaultTheme.components,
    MuiTextField: { defaultProps: { variant: 'outlined', size: 'small' } },
    MuiCssBaseline: { styleOverrides: { ...focusVisibleStyles, ...reflowStyles } },
  },
};
