/** 'TelepsychUrgentCrisisEvaluation' → 'Telepsych Urgent Crisis Evaluation'; 'OnHold_Other' → 'On Hold: Other'. */
export function humanize(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .split('_')
    .map((part) => part.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2'))
    .join(': ');
}
