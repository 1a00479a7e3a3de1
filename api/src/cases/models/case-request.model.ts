import { Column, DataType, Model, Table } from 'sequelize-typescript';

/** A request of a case (spec 01 §3 Request): written only through CaseRepository. */
@Table({ tableName: 'requests' })
export class CaseRequest extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.INTEGER }) declare id: number;
  @Column(DataType.INTEGER) declare caseId: number;
  @Column(DataType.TEXT) declare type: string;
  @Column(DataType.TEXT) declare status: string;
  @Column(DataType.INTEGER) declare evaluationProviderId: number | null;
  @Column(DataType.INTEGER) declare divisionId: number | null;
  @Column(DataType.TEXT) declare note: string | null;
  @Column(DataType.TEXT) declare facilityNote: string | null;
  @Column(DataType.TEXT) declare facilityNoteAuthor: string | null;
  @Column(DataType.TEXT) declare itpNote: string | null;
  @Column(DataType.TEXT) declare itpNoteAuthor: string | null;
  @Column(DataType.TEXT) declare reason: string | null;
  @Column(DataType.DATE) declare evaluationStartedAt: Date | null;
  @Column(DataType.DATE) declare completedAt: Date | null;
  @Column(DataType.DATE) declare canceledAt: Date | null;
  @Column(DataType.INTEGER) declare createdBy: number | null;
}
