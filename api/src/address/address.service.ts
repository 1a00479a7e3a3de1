import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { ADDRESS_SUGGESTIONS_MAX, OrganizationType, splitApartment, type AppAbility, type StreetSuggestion, type UserContext } from '@crisis/forms';
import { select } from '../reference/reference-sql';
import { zipData, type CitySuggestion, type CountySuggestion, type ZipInfo } from './zip-data';

export type { StreetSuggestion } from '@crisis/forms';

/** "starts with" for LIKE, with the pattern characters of the search escaped. */
const startsWithPattern = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

@Injectable()
export class AddressService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  zip(zipCode: string): ZipInfo | null {
    return zipData().zip(zipCode);
  }

  knownState(state: string): boolean {
    return zipData().states.has(state);
  }

  cities(q: string, state: string | null): CitySuggestion[] {
    return zipData().findCities(q, state, ADDRESS_SUGGESTIONS_MAX);
  }

  counties(q: string, states: string[]): CountySuggestion[] {
    return zipData().findCounties(q, states, ADDRESS_SUGGESTIONS_MAX);
  }

  /**
   * Street autocomplete. The spec's provider is an external places service we do not have; this
   * offers the typed text split into street and apartment, then the street lines already known:
   * facilities (public addresses, with city, zip and coordinates) and, to users who enter patients,
   * the street lines of patients (the line only; facility-side users only their facility's patients).
   */
  async streets(q: string, user: UserContext, ability: AppAbility): Promise<StreetSuggestion[]> {
    const typed = splitApartment(q);
    const out: StreetSuggestion[] = [];
    const seen = new Set<string>();
    const push = (s: StreetSuggestion) => {
      const key = `${s.streetLine.toLowerCase()}|${(s.apartmentNumber ?? '').toLowerCase()}|${s.zipCode ?? ''}`;
      if (seen.has(key) || out.length >= ADDRESS_SUGGESTIONS_MAX) return;
      seen.add(key);
      out.push(s);
    };
    if (typed.apartmentNumber) {
      push({ source: 'typed', ...typed, city: null, state: null, county: null, zipCode: null, latitude: null, longitude: null });
    }
    const pattern = startsWithPattern(typed.streetLine || q);
    const facilities = await select<{
      street_line: string; apartment_number: string | null; city: string; state: string; county: string | null; zip_code: string; latitude: number; longitude: number;
    }>(
      this.sequelize,
      `SELECT DISTINCT ON (lower(street_line), zip_code) street_line, apartment_number, city, trim(state) AS state, county, zip_code, latitude, longitude
         FROM facilities WHERE lower(street_line) LIKE $1 ORDER BY lower(street_line), zip_code LIMIT $2`,
      [pattern, ADDRESS_SUGGESTIONS_MAX],
    );
    for (const f of facilities) {
      push({
        source: 'facility', streetLine: f.street_line, apartmentNumber: typed.apartmentNumber ?? f.apartment_number, city: f.city, state: f.state,
        county: f.county, zipCode: f.zip_code, latitude: f.latitude, longitude: f.longitude,
      });
    }
    const patientScope = this.patientScope(user, ability);
    if (patientScope && out.length < ADDRESS_SUGGESTIONS_MAX) {
      const bind: unknown[] = [pattern, ADDRESS_SUGGESTIONS_MAX];
      let where = 'street_line IS NOT NULL AND lower(street_line) LIKE $1';
      if (patientScope !== 'all') {
        bind.push(patientScope.facilityId);
        where += ` AND created_in_facility_id = $${bind.length}`;
      }
      const lines = await select<{ street_line: string }>(
        this.sequelize,
        `SELECT min(street_line) AS street_line FROM patients WHERE ${where} GROUP BY lower(street_line) ORDER BY lower(street_line) LIMIT $2`,
        bind,
      );
      for (const p of lines) {
        const parts = splitApartment(p.street_line);
        push({
          source: 'patient', streetLine: parts.streetLine, apartmentNumber: typed.apartmentNumber ?? parts.apartmentNumber,
          city: null, state: null, county: null, zipCode: null, latitude: null, longitude: null,
        });
      }
    }
    return out;
  }

  /** Which patients' street lines a user may be offered: those who enter or manage patients. */
  private patientScope(user: UserContext, ability: AppAbility): 'all' | { facilityId: number } | null {
    if (ability.can('manage', 'Patient')) return 'all';
    if (!ability.can('create', 'Case') && !ability.can('update', 'Case')) return null;
    if (user.facilityId) return { facilityId: user.facilityId };
    return user.organizationType === OrganizationType.ITP ? 'all' : null;
  }
}
