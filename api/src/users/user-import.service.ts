import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { parse } from 'csv-parse/sync';
import {
  CodedError,
  ErrorCode,
  MUST_BE_CSV,
  normalizeInput,
  OrganizationType,
  ORGANIZATION_TYPES,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_ROWS,
  UserType,
  validate,
  type UserContext,
  type UserInput,
} from '@crisis/forms';
import { ErrorCodeImport } from './user-import.errors';
import { UsersService } from './users.service';

/** The header line plus the data rows: data row i (0-based) is "Row i + 2", as a spreadsheet numbers it. */
const rowLabel = (i: number) => `Row ${i + 2}`;

export interface ImportPlan {
  errors: string[];
  users: UserInput[];
}

/**
 * User CSV import (spec 03 §5 User import, §7): the template, the validation that names each
 * problem with its row, and the import itself (only when validation finds nothing), each user
 * created exactly as POST /api/user/invite creates one.
 */
@Injectable()
export class UserImportService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly users: UsersService,
  ) {}

  template(): string {
    return (
      USER_IMPORT_COLUMNS.join(',') +
      '\r\n' +
      'Jane,Doe,jane.doe@example.com,(555) 123-4567,Nurse,Facility,General Hospital,Facility_User,ER;Psych Unit\r\n'
    );
  }

  /** Parses and checks the file; `caller` scopes what a facility admin may import (her own facility). */
  async plan(file: { filename: string; mimetype: string; data: Buffer }, caller: UserContext): Promise<ImportPlan> {
    const records = this.parse(file);
    const errors: string[] = [];
    if (records.length === 0) return { errors: ['The file has no user rows'], users: [] };
    if (records.length > USER_IMPORT_MAX_ROWS)
      return { errors: [`The file has ${records.length} rows; at most ${USER_IMPORT_MAX_ROWS} can be imported at once`], users: [] };

    const users: UserInput[] = [];
    const seenEmails = new Map<string, number>();
    for (let i = 0; i < records.length; i++) {
      const rowErrors: string[] = [];
      const input = await this.toInput(records[i], caller, rowErrors);
      if (input) {
        for (const e of validate('user', input).filter((e) => e.field !== 'organizationId' && e.field !== 'divisionsIds')) rowErrors.push(e.key === 'required' ? `${e.field} is required` : `${e.field}: ${e.message}`);
        const email = typeof input.email === 'string' ? input.email.toLowerCase() : null;
        if (email) {
          if (seenEmails.has(email)) rowErrors.push(`email ${input.email} is also on row ${seenEmails.get(email)! + 2}`);
          else seenEmails.set(email, i);
        }
        users.push(input);
      }
      errors.push(...[...new Set(rowErrors)].map((e) => `${rowLabel(i)}: ${e}`));
    }
    // E-mails already taken, one query for the whole file.
    const emails = [...seenEmails.keys()];
    if (emails.length) {
      const taken = await this.sequelize.query<{ email: string }>('SELECT lower(email) AS email FROM users WHERE lower(email) IN (:emails)', {
        replacements: { emails },
        type: QueryTypes.SELECT,
      });
      for (const { email } of taken) errors.push(`${rowLabel(seenEmails.get(email)!)}: User with email ${email} already exists`);
    }
    errors.sort((a, b) => rowNo(a) - rowNo(b));
    return { errors, users };
  }

  /** Creates the users of a clean file (the caller's transaction holds them all); refuses a file with errors. */
  async import(file: { filename: string; mimetype: string; data: Buffer }, caller: UserContext) {
    const { errors, users } = await this.plan(file, caller);
    if (errors.length) throw new CodedError(ErrorCodeImport, errors, undefined, 'The file has errors: validate it first');
    const ids: number[] = [];
    for (const u of users) ids.push((await this.users.invite(u)).id);
    return { imported: ids.length, ids };
  }

  private parse(file: { filename: string; mimetype: string; data: Buffer }): Record<string, string>[] {
    const csvName = /\.csv$/i.test(file.filename || '');
    const csvType = /^(text\/(csv|plain|x-csv)|application\/(vnd\.ms-excel|csv|x-csv|octet-stream))$/i.test(file.mimetype || '');
    // Checked by content too: text, no NUL bytes.
    if (!csvName || !csvType || file.data.includes(0)) throw mustBeCsv();
    let rows: string[][];
    try {
      rows = parse(file.data, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as string[][];
    } catch {
      throw mustBeCsv();
    }
    if (!rows.length) throw mustBeCsv();
    const header = rows[0].map((h) => h.trim());
    const missing = USER_IMPORT_COLUMNS.filter((c) => !header.some((h) => h.toLowerCase() === c.toLowerCase()));
    if (missing.length)
      throw new CodedError(ErrorCode.Invalid, [`The header must name the columns ${USER_IMPORT_COLUMNS.join(',')}; missing: ${missing.join(', ')}`], [
        { field: 'file', key: 'invalidHeader', message: `Missing columns: ${missing.join(', ')}` },
      ]);
    const index = (c: string) => header.findIndex((h) => h.toLowerCase() === c.toLowerCase());
    return rows.slice(1).map((r) => Object.fromEntries(USER_IMPORT_COLUMNS.map((c) => [c, r[index(c)] ?? ''])));
  }

  private async toInput(r: Record<string, string>, caller: UserContext, errors: string[]): Promise<UserInput | null> {
    const v = normalizeInput({ ...r }) as Record<string, string | null>;
    let organizationType = v.organizationType as OrganizationType | null;
    const userType = v.userType as UserType | null;
    // Short forms are accepted for the ITP.
    if (organizationType && /^itp$/i.test(organizationType)) organizationType = OrganizationType.ITP;
    if (caller.role === UserType.FacilityAdmin) {
      if (organizationType && organizationType !== OrganizationType.Facility) errors.push('organizationType must be Facility');
      organizationType = OrganizationType.Facility;
    }
    let organizationId: number | null = null;
    if (organizationType && !(ORGANIZATION_TYPES as string[]).includes(organizationType)) {
      errors.push(`organizationType must be one of ${ORGANIZATION_TYPES.join(', ')}`);
    } else if (organizationType === OrganizationType.ITP) {
      if (v.organization) errors.push('organization must be empty for the ITP');
    } else if (organizationType) {
      if (caller.role === UserType.FacilityAdmin && !v.organization) organizationId = caller.organizationId;
      else if (!v.organization) errors.push('organization is required');
      else {
        const table = organizationType === OrganizationType.Facility ? 'facilities' : 'group_organizations';
        const found = await this.sequelize.query<{ id: number }>(`SELECT id FROM ${table} WHERE lower(name) = lower(:name) ORDER BY id`, {
          replacements: { name: v.organization },
          type: QueryTypes.SELECT,
        });
        if (!found.length) errors.push(`organization "${v.organization}" was not found`);
        else if (found.length > 1) errors.push(`organization "${v.organization}" matches ${found.length} organizations`);
        else organizationId = found[0].id;
        if (organizationId && caller.role === UserType.FacilityAdmin && organizationId !== caller.organizationId)
          errors.push('organization must be your own facility');
      }
    }
    if (userType === UserType.ItpProvider) errors.push('providers cannot be imported (provider info is required): invite them one by one');

    let divisionsIds: number[] = [];
    const divisionNames = (v.divisions ?? '').split(';').map((s) => s.trim()).filter(Boolean);
    if (divisionNames.length) {
      if (organizationType !== OrganizationType.Facility) errors.push('divisions are for facility users only');
      else if (organizationId) {
        const found = await this.sequelize.query<{ id: number; name: string }>(
          'SELECT id, name FROM divisions WHERE facility_id = :org AND lower(name) IN (:names)',
          { replacements: { org: organizationId, names: divisionNames.map((n) => n.toLowerCase()) }, type: QueryTypes.SELECT },
        );
        for (const n of divisionNames)
          if (!found.some((d) => d.name.toLowerCase() === n.toLowerCase())) errors.push(`division "${n}" was not found in the organization`);
        divisionsIds = [...new Set(found.map((d) => d.id))];
      }
    }
    if (userType === UserType.FacilityUser && !divisionNames.length) errors.push('divisions is required');

    return {
      firstName: v.firstName as string,
      lastName: v.lastName as string,
      email: v.email as string,
      phone: v.phone as string,
      jobTitle: v.jobTitle,
      isEnabled: true,
      sendUserUnlockRequeststoThisUser: userType === UserType.ItpUser,
      organizationType: organizationType as OrganizationType,
      organizationId,
      userType: userType as UserType,
      divisionsIds,
      providerInfo: null,
    } as UserInput;
  }
}

const rowNo = (s: string) => Number(/^Row (\d+)/.exec(s)?.[1] ?? 0);
const mustBeCsv = () => new CodedError(ErrorCode.Invalid, [MUST_BE_CSV], [{ field: 'file', key: 'mustBeCsv', message: MUST_BE_CSV }], MUST_BE_CSV);
