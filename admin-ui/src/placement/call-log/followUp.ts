/** "in 15 min", "in 1 h 15 min", "in 68 h". */
export function followUpLabel(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `in ${m} min`;
  return m ? `in ${h} h ${m} min` : `in ${h} h`;
}
