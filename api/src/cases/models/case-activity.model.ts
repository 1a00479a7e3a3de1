import { Column, DataType, Model, Table } from 'sequelize-typescript';

/** One status period of a case (its activity log): written only through CaseRepository. */
@Table({ tableName: 'case_activities', timestamps: false })
export class CaseActivity extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.BIGINT }) declare id: string;
  @Column(DataType.INTEGER) declare caseId: number;
  @Column(DataType.TEXT) declare status: string;
  @Column(DataType.TEXT) declare statusGroup: string;
  /** created | manual | auto | resume | undo | reopen | recommendation | meeting */
  @Column(DataType.TEXT) declare kind: string;
  @Column(DataType.TEXT) declare note: string | null;
  @Column(DataType.INTEGER) declare initiatorId: number | null;
  @Column(DataType.TEXT) declare initiatorName: string | null;
  @Column(DataType.DATE) declare startedAt: Date;
  @Column(DataType.DATE) declare endedAt: Date | null;
  @Column(DataType.TEXT) declare mainRecommendation: string | null;
  @Column(DataType.ARRAY(DataType.TEXT)) declare criteria: string[] | null;
  @Column(DataType.TEXT) declare recommendationNote: string | null;
  @Column(DataType.DATE) declare undoneAt: Date | null;
  @Column(DataType.TEXT) declare commandId: string | null;
}
