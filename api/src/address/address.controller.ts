import { Controller, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  CITY_AUTOCOMPLETE_MIN_CHARS,
  COUNTY_AUTOCOMPLETE_MIN_CHARS,
  STREET_AUTOCOMPLETE_MIN_CHARS,
  ZIP_LOOKUP_PATTERN,
  type AppAbility,
  type UserContext,
} from '@crisis/forms';
import { CurrentAbility, CurrentUser } from '../auth/current-user.decorator';
import { invalid, notFound } from '../common/coded-error';
import { AddressService } from './address.service';
import { Route } from '../common/route';

const MAX_QUERY = 100;

/** One text query parameter: repeated parameters and non-strings are refused (400), blanks become ''. */
function text(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalid([{ field, key: 'type', message: 'Must be a single text value' }]);
  const t = value.replace(/\s+/g, ' ').trim();
  if (t.length > MAX_QUERY) throw invalid([{ field, key: 'maxLength', message: `Must be at most ${MAX_QUERY} characters` }]);
  return t;
}

function searchText(value: unknown, min: number): string {
  const q = text(value, 'q');
  if (q.length < min) throw invalid([{ field: 'q', key: 'minLength', message: `Type at least ${min} characters` }]);
  return q;
}

/**
 * Address look-ups from a local US ZIP data set (spec 03 §2, §5; spec 01 §5; spec 02 §5, §7): ZIP →
 * city, state, county and coordinates; city and county autocomplete; street autocomplete from the
 * addresses already known. Every signed-in staff user may use them (they fill forms); GETs only.
 */
@ApiTags('address')
@Controller('api/address')
export class AddressController {
  constructor(private readonly address: AddressService) {}

  private state(value: unknown, field: string): string {
    const s = text(value, field).toUpperCase();
    if (!/^[A-Z]{2}$/.test(s) || !this.address.knownState(s)) throw invalid([{ field, key: 'enum', message: 'Unknown state' }]);
    return s;
  }

  @Route('GET', 'zip/:zip', 'read', 'Profile')
  @ApiParam({ name: 'zip', description: '5 digits (a +4 suffix is accepted and ignored)' })
  @ApiOkResponse({ description: '{ zipCode, city, state, county, latitude, longitude }' })
  @ApiBadRequestResponse({ description: 'INV: not a ZIP code' })
  @ApiNotFoundResponse({ description: 'NTFND: unknown ZIP code' })
  zip(@Param('zip') zip: string) {
    const m = ZIP_LOOKUP_PATTERN.exec(String(zip ?? '').trim());
    if (!m) throw invalid([{ field: 'zip', key: 'pattern', message: 'Zip must be 5 digits' }]);
    const found = this.address.zip(m[1]);
    if (!found) throw notFound();
    return found;
  }

  @Route('GET', 'cities', 'read', 'Profile')
  @ApiQuery({ name: 'q', required: true, description: `start of the city name, at least ${CITY_AUTOCOMPLETE_MIN_CHARS} characters` })
  @ApiQuery({ name: 'state', required: false, description: 'two-letter state code' })
  @ApiOkResponse({ description: 'Up to 20 cities { city, state, county, zipCode, latitude, longitude } (a representative zip)' })
  @ApiBadRequestResponse({ description: 'INV: query too short or unknown state' })
  cities(@Query() query: Record<string, unknown>) {
    const q = searchText(query.q, CITY_AUTOCOMPLETE_MIN_CHARS);
    const state = text(query.state, 'state') ? this.state(query.state, 'state') : null;
    return this.address.cities(q, state);
  }

  @Route('GET', 'counties', 'read', 'Profile')
  @ApiQuery({ name: 'q', required: true, description: `start of the county name, at least ${COUNTY_AUTOCOMPLETE_MIN_CHARS} characters` })
  @ApiQuery({ name: 'states', required: false, description: 'two-letter state codes, comma separated or repeated' })
  @ApiOkResponse({ description: 'Up to 20 counties { county, state }' })
  @ApiBadRequestResponse({ description: 'INV: query too short or unknown state' })
  counties(@Query() query: Record<string, unknown>) {
    const q = searchText(query.q, COUNTY_AUTOCOMPLETE_MIN_CHARS);
    const raw = query.states;
    const list = raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).flatMap((v) => text(v, 'states').split(','));
    if (list.length > 60) throw invalid([{ field: 'states', key: 'maxItems', message: 'Too many states' }]);
    const states = [...new Set(list.map((s) => s.trim()).filter(Boolean).map((s) => this.state(s, 'states')))];
    return this.address.counties(q, states);
  }

  @Route('GET', 'streets', 'read', 'Profile')
  @ApiQuery({ name: 'q', required: true, description: `start of the street line, at least ${STREET_AUTOCOMPLETE_MIN_CHARS} characters` })
  @ApiOkResponse({ description: 'Up to 20 suggestions { source, streetLine, apartmentNumber, city, state, county, zipCode, latitude, longitude }' })
  @ApiBadRequestResponse({ description: 'INV: query too short' })
  streets(@Query() query: Record<string, unknown>, @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility) {
    const q = searchText(query.q, STREET_AUTOCOMPLETE_MIN_CHARS);
    return this.address.streets(q, user, ability);
  }
}
