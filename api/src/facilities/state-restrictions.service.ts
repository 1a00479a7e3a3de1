import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { StateRestrictionType, US_STATES, type StateRestrictionRecord } from '@crisis/forms';
import { notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';

export interface StateRestrictionInput {
  type: StateRestrictionType;
  withinTravelTime?: number | null;
}

/** The restrictions table lists the 50 states (DC exists only for addresses). */
const STATES = US_STATES.filter((s) => s.code !== 'DC');

/**
 * Closest travel time from the facility to a receiving facility in a state. Needs a routing
 * service, which the platform does not have yet: null ("—") until one is wired in here.
 */
async function closestTravelTimes(_facilityId: number): Promise<Map<string, number>> {
  return new Map();
}

/** State restrictions and the populate-out-of-state flag of a facility (spec 03 §2, §3, §7). */
@Injectable()
export class StateRestrictionsService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  async list(facilityId: number): Promise<StateRestrictionRecord[]> {
    await this.getPopulate(facilityId);
    const saved = await this.sequelize.query<{ id: number; state: string; type: StateRestrictionType; withinTravelTime: number | null }>(
      `SELECT id, state, type, within_travel_time AS "withinTravelTime" FROM facility_state_restrictions WHERE facility_id = $1`,
      { bind: [facilityId], type: QueryTypes.SELECT },
    );
    const byState = new Map(saved.map((r) => [r.state, r]));
    const travel = await closestTravelTimes(facilityId);
    return STATES.map(({ code, name }) => {
      const r = byState.get(code);
      return {
        id: code,
        restrictionId: r?.id ?? null,
        state: code,
        stateName: name,
        type: r?.type ?? StateRestrictionType.NoRestrictions,
        withinTravelTime: r?.withinTravelTime ?? null,
        closestTravelTime: travel.get(code) ?? null,
      };
    });
  }

  async save(facilityId: number, state: string, body: StateRestrictionInput): Promise<StateRestrictionRecord> {
    const known = STATES.find((s) => s.code === state);
    if (!known) throw notFound();
    await this.getPopulate(facilityId);
    const within = body.type === StateRestrictionType.OnlyPopulateFacilitiesWithinTravelTime ? (body.withinTravelTime ?? null) : null;
    auditValues({ facilityId, state, type: body.type, withinTravelTime: within });
    await this.sequelize.query(
      `INSERT INTO facility_state_restrictions (facility_id, state, type, within_travel_time) VALUES ($1, $2, $3, $4)
       ON CONFLICT (facility_id, state) DO UPDATE SET type = EXCLUDED.type, within_travel_time = EXCLUDED.within_travel_time, updated_at = now()`,
      { bind: [facilityId, state, body.type, within] },
    );
    return (await this.list(facilityId)).find((r) => r.state === state)!;
  }

  async getPopulate(facilityId: number): Promise<{ populateOutOfStateFacilities: boolean }> {
    const [row] = await this.sequelize.query<{ populateOutOfStateFacilities: boolean }>(
      'SELECT populate_out_of_state_facilities AS "populateOutOfStateFacilities" FROM facilities WHERE id = $1',
      { bind: [facilityId], type: QueryTypes.SELECT },
    );
    if (!row) throw notFound();
    return row;
  }

  async setPopulate(facilityId: number, value: boolean): Promise<{ populateOutOfStateFacilities: boolean }> {
    auditValues({ facilityId, populateOutOfStateFacilities: value });
    const rows = await this.sequelize.query<{ populateOutOfStateFacilities: boolean }>(
      `UPDATE facilities SET populate_out_of_state_facilities = $2, updated_at = now() WHERE id = $1
       RETURNING populate_out_of_state_facilities AS "populateOutOfStateFacilities"`,
      { bind: [facilityId, value], type: QueryTypes.SELECT },
    );
    if (!rows.length) throw notFound();
    return rows[0];
  }
}
