/** 'MentalHealthInpatient' → 'Mental Health Inpatient'; 'Transferred_MedicalUnit' → 'Transferred: Medical Unit'. */
export function enumLabel(value: string | null | undefined): string {
  if (!value) return '';
  const words = (v: string) => v.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const [head, ...rest] = value.split('_');
  return rest.length ? `${words(head)}: ${rest.map(words).join(' — ')}` : words(head);
}
