/**
 * Request bodies are normalised before validation (spec 03 §5): text is trimmed and blank or
 * whitespace-only strings become null, at any depth. Used by the API's validation pipe and by the
 * UI before submit, so both see the same values.
 */
export function normalizeInput<T>(value: T): T {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return (trimmed === '' ? null : trimmed) as T;
  }
  if (Array.isArray(value)) return value.map((v) => normalizeInput(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = normalizeInput(v);
    return out as T;
  }
  return value;
}
