import { BelongsToMany, Column, DataType, Model, Table } from 'sequelize-typescript';
import type { MfaMethod, OrganizationType, UserType } from '@crisis/forms';
import { Division } from '../facilities/division.model';
import { UserDivision } from './user-division.model';

@Table({ tableName: 'users' })
export class User extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.INTEGER }) declare id: number;
  @Column(DataType.TEXT) declare firstName: string;
  @Column(DataType.TEXT) declare lastName: string;
  @Column(DataType.TEXT) declare email: string;
  @Column(DataType.TEXT) declare phone: string | null;
  @Column(DataType.TEXT) declare jobTitle: string | null;
  @Column(DataType.TEXT) declare avatar: string | null;
  @Column(DataType.BOOLEAN) declare isActive: boolean;
  @Column(DataType.BOOLEAN) declare creating: boolean;
  @Column(DataType.BOOLEAN) declare emailConfirmed: boolean;
  @Column(DataType.TEXT) declare passwordHash: string | null;
  @Column(DataType.INTEGER) declare failedLoginCount: number;
  @Column(DataType.BOOLEAN) declare passwordLockedOut: boolean;
  @Column(DataType.BOOLEAN) declare lockedDueInactivity: boolean;
  @Column(DataType.DATE) declare lastLogin: Date | null;
  @Column(DataType.TEXT) declare mfaMethod: MfaMethod | null;
  @Column(DataType.BOOLEAN) declare ssoEnabled: boolean;
  @Column(DataType.BOOLEAN) declare disabledPasswordLogin: boolean;
  @Column(DataType.TEXT) declare organizationType: OrganizationType;
  @Column(DataType.INTEGER) declare organizationId: number | null;
  @Column(DataType.TEXT) declare userType: UserType;
  @Column(DataType.JSONB) declare providerInfo: Record<string, unknown> | null;
  @Column({ type: DataType.BOOLEAN, field: 'send_user_unlock_requests' }) declare sendUserUnlockRequeststoThisUser: boolean;
  @Column(DataType.JSONB) declare notificationsReceivingSettings: { phone: string | null; alwaysReceive: boolean; receiveUntil: string | null } | null;
  /** Access tokens issued before this instant are refused with the revoked header. */
  @Column(DataType.DATE) declare tokensValidAfter: Date;

  @BelongsToMany(() => Division, () => UserDivision) declare divisions?: Division[];

  get fullName(): string {
    return `${this.firstName} ${this.lastName}`;
  }
}
