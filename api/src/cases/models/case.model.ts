import { Column, DataType, Model, Table } from 'sequelize-typescript';

/** A case (spec 01 §3): written only through CaseRepository (the one writer). */
@Table({ tableName: 'cases' })
export class Case extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.INTEGER }) declare id: number;
  @Column(DataType.INTEGER) declare patientId: number;
  @Column(DataType.TEXT) declare status: string;
  @Column(DataType.DATE) declare statusChangedAt: Date;
  @Column(DataType.TEXT) declare statusToResume: string | null;
  @Column(DataType.INTEGER) declare sourceFacilityId: number;
  @Column(DataType.INTEGER) declare sourceDivisionId: number;
  @Column(DataType.TEXT) declare attendingProvider: string | null;
  @Column(DataType.TEXT) declare rnCaringForPatient: string | null;
  @Column(DataType.TEXT) declare contactPhoneNumber: string | null;
  @Column(DataType.TEXT) declare notificationSendingMethod: string;
  @Column(DataType.BOOLEAN) declare isInvoluntary: boolean;
  @Column(DataType.BOOLEAN) declare includeOutOfStateFacilities: boolean;
  @Column(DataType.TEXT) declare mainRecommendation: string | null;
  @Column(DataType.ARRAY(DataType.TEXT)) declare criteria: string[];
  @Column(DataType.TEXT) declare recommendationNote: string | null;
  @Column(DataType.BOOLEAN) declare uninsured: boolean;
  @Column(DataType.TEXT) declare patientEpicId: string | null;
  @Column({ type: DataType.TEXT, field: 'encounter_identifier_id' }) declare encounterIdentifier: string | null;
  @Column(DataType.TEXT) declare outcomeType: string | null;
  @Column(DataType.TEXT) declare outcomeNote: string | null;
  @Column(DataType.INTEGER) declare outcomeReferringDivisionId: number | null;
  @Column(DataType.DATE) declare locatingServicesStartedAt: Date | null;
  @Column(DataType.INTEGER) declare locatingServicesSeconds: number;
  @Column(DataType.DATE) declare closedAt: Date | null;
  @Column(DataType.DATE) declare reworkedAt: Date | null;
  @Column(DataType.INTEGER) declare createdBy: number | null;
  @Column(DataType.INTEGER) declare version: number;
}
