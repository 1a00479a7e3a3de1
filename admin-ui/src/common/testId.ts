/** Puts a data-testid on the <input> of a react-admin text input (MUI 7 slotProps). */
export const inputTestId = (id: string) => ({ slotProps: { htmlInput: { 'data-testid': id } } }) as const;
