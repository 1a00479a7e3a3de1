/** 'InvoluntaryPsychiatricHold' → 'Involuntary psychiatric hold'; 'BothAHOrVH' → 'Both AH or VH'. */
export function enumLabel(v: string | null | undefined): string {
  if (!v) return '—';
  if (v === 'BothAHOrVH') return 'Both AH or VH';
  if (v === '{hash}') return '#';
  const words = v.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(' ');
  return words.map((w, i) => (i === 0 || /^[A-Z0-9]{2,}$/.test(w) ? w : w.toLowerCase())).join(' ');
}

export const yesNo = (v: boolean | null | undefined) => (v === true ? 'Yes' : v === false ? 'No' : '—');
