import { useEffect, useState } from 'react';
import { api } from '../data/httpClient';

/** An option of a select filled from the API. */
export type Choice = { id: number | string; name: string };

/** GET `url` as options ([] while `url` is null or on a failure); `map` turns the rows into options. */
export function useChoices(url: string | null, map: (rows: any[]) => Choice[] = (rows) => rows.map((r) => ({ id: r.id, name: r.name }))) {
  const [choices, setChoices] = useState<Choice[]>([]);
  useEffect(() => {
    let live = true;
    if (!url) return setChoices([]);
    api
      .get<any[]>(url)
      .then((rows) => live && setChoices(map(Array.isArray(rows) ? rows : [])))
      .catch(() => live && setChoices([]));
    return () => {
      live = false;
    };
  }, [url]);
  return choices;
}
