import { BelongsTo, Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { DivisionType } from '@crisis/forms';
import { Facility, type Contacts } from './facility.model';

export interface AcceptedPatients {
  allAges: boolean;
  adolescent?: { isActive: boolean; from: number | null; to: number | null };
  adult?: { isActive: boolean; from: number | null; to: number | null };
  geriatric?: { isActive: boolean; from: number | null; to: number | null };
}

@Table({ tableName: 'divisions' })
export class Division extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.INTEGER }) declare id: number;
  @ForeignKey(() => Facility) @Column(DataType.INTEGER) declare facilityId: number;
  @BelongsTo(() => Facility) declare facility?: Facility;
  @Column(DataType.TEXT) declare name: string;
  @Column(DataType.TEXT) declare npi: string | null;
  @Column(DataType.BOOLEAN) declare isActive: boolean;
  @Column(DataType.JSONB) declare contacts: Contacts;
  @Column(DataType.TEXT) declare type: DivisionType;
  @Column(DataType.TEXT) declare description: string | null;
  @Column(DataType.TEXT) declare sourceType: string | null;
  @Column({ type: DataType.BOOLEAN, field: 'document_in_ehr' }) declare documentInEHR: boolean | null;
  @Column(DataType.BOOLEAN) declare noPlacement: boolean | null;
  @Column(DataType.BOOLEAN) declare outcomeRequired: boolean | null;
  @Column(DataType.BOOLEAN) declare showBillingCode: boolean | null;
  @Column(DataType.ARRAY(DataType.TEXT)) declare requestTypes: string[] | null;
  @Column(DataType.TEXT) declare referringType: string | null;
  @Column(DataType.ARRAY(DataType.TEXT)) declare criteria: string[] | null;
  @Column(DataType.JSONB) declare acceptedPatients: AcceptedPatients | null;
  @Column(DataType.ARRAY(DataType.TEXT)) declare genders: string[] | null;
  @Column(DataType.BOOLEAN) declare veteranOnly: boolean | null;
  @Column(DataType.BOOLEAN) declare extendMaximumCallbackTime: boolean | null;
  @Column(DataType.INTEGER) declare score: number | null;
}
