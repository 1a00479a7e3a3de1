import { Column, DataType, Model, Table } from 'sequelize-typescript';

/** A case command applied (its id and result): a retried command finds it and is not applied twice. */
@Table({ tableName: 'case_commands', timestamps: false })
export class CaseCommandRecord extends Model {
  @Column({ primaryKey: true, type: DataType.TEXT }) declare commandId: string;
  @Column(DataType.INTEGER) declare caseId: number;
  @Column(DataType.TEXT) declare kind: string;
  @Column(DataType.JSONB) declare result: unknown;
  @Column(DataType.DATE) declare appliedAt: Date;
}
