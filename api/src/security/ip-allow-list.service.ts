import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CodedError, ErrorCode, ipListMatcher, OrganizationType, parseIpList, type UserContext } from '@crisis/forms';

/** What the allow-lists need to know of a user: her organization. */
export type ListedUser = Pick<UserContext, 'organizationType' | 'organizationId'>;

/** An allow-list about to be saved (spec 03 §3 IP allow-list settings); facilityId null: the ITP organization's. */
export interface IpAllowListChange {
  facilityId?: number | null;
  ipWhiteListEnabled: boolean;
  ipAddresses?: string | null;
  /** The saving admin knows the list leaves out her current address. */
  confirmed?: boolean | null;
}

type Matcher = (ip: string) => boolean;
interface Snapshot {
  at: number;
  itp: Matcher | null;
  facilities: Map<number, Matcher>;
}

/** An enabled list that cannot be parsed (edited by hand in the database) lets nobody in. */
const NOBODY: Matcher = () => false;
const matcherOf = (list: string | null): Matcher => {
  const entries = list ? parseIpList(list) : null;
  return entries ? ipListMatcher(entries) : NOBODY;
};

/**
 * The IP allow-lists of the ITP organization and of the facilities (spec 03 §3 IP allow-list
 * settings), as one in-memory snapshot of the enabled lists, reloaded at most every few seconds:
 * one small query per replica per period, nothing per request. A change made through this
 * replica applies at once (invalidate), on another replica within TTL_MS.
 */
@Injectable()
export class IpAllowListService {
  static readonly TTL_MS = 5000;
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;

  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  invalidate() {
    this.snapshot = null;
  }

  /**
   * Refuses (409 INV.IP.ALLOW.LIST.EXCLUDES.CURRENT.ADDRESS, payload { ipAddress }) a save that
   * would shut the saving admin out — the list is her own organization's, enabled, and leaves out
   * her current address — unless the request says she confirmed it.
   */
  assertKeepsCaller(user: ListedUser, ip: string, change: IpAllowListChange): void {
    if (change.confirmed || !change.ipWhiteListEnabled) return;
    const facilityId = change.facilityId ?? null;
    const hers =
      facilityId === null ? user.organizationType === OrganizationType.ITP
      : user.organizationType === OrganizationType.Facility && user.organizationId === facilityId;
    if (hers && !matcherOf(change.ipAddresses ?? null)(ip)) throw new CodedError(ErrorCode.IpAllowListExcludesCurrentAddress, { ipAddress: ip });
  }

  /** Whether `ip` may call the API as `user` (true when the user's organization has no enabled list). */
  async allows(user: ListedUser, ip: string): Promise<boolean> {
    const s = await this.current();
    const matcher =
      user.organizationType === OrganizationType.ITP ? s.itp
      : user.organizationType === OrganizationType.Facility && user.organizationId !== null ? s.facilities.get(user.organizationId) ?? null
      : null;
    return !matcher || matcher(ip);
  }

  private async current(): Promise<Snapshot> {
    const s = this.snapshot;
    if (s && Date.now() - s.at < IpAllowListService.TTL_MS) return s;
    if (!this.loading)
      this.loading = this.load().finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  private async load(): Promise<Snapshot> {
    // Outside any request transaction: a plain read of committed settings.
    const rows = await this.sequelize.query<{ kind: 'itp' | 'facility'; id: number; ip_addresses: string | null }>(
      `SELECT 'itp' AS kind, id, ip_addresses FROM itp_organization WHERE ip_white_list_enabled
       UNION ALL
       SELECT 'facility', id, ip_addresses FROM facilities WHERE ip_white_list_enabled`,
      { type: QueryTypes.SELECT, transaction: null as any },
    );
    const snapshot: Snapshot = { at: Date.now(), itp: null, facilities: new Map() };
    for (const r of rows) {
      if (r.kind === 'itp') snapshot.itp = matcherOf(r.ip_addresses);
      else snapshot.facilities.set(r.id, matcherOf(r.ip_addresses));
    }
    this.snapshot = snapshot;
    return snapshot;
  }
}
