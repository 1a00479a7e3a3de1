import { Column, DataType, Model, Table } from 'sequelize-typescript';

/** One row of the append-only audit log (spec 03 §3 Audit log entry). */
@Table({ tableName: 'audit_log', timestamps: false })
export class AuditEntry extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.BIGINT }) declare id: string;
  @Column({ type: DataType.DATE, defaultValue: DataType.NOW }) declare performedAt: Date;
  @Column(DataType.TEXT) declare mainAction: string;
  @Column(DataType.TEXT) declare kind: string;
  @Column(DataType.INTEGER) declare userId: number | null;
  @Column(DataType.TEXT) declare userName: string | null;
  @Column(DataType.TEXT) declare email: string | null;
  @Column(DataType.TEXT) declare userType: string | null;
  @Column(DataType.TEXT) declare organization: string | null;
  @Column(DataType.INTEGER) declare facilityId: number | null;
  @Column(DataType.TEXT) declare division: string | null;
  @Column(DataType.BOOLEAN) declare success: boolean;
  @Column(DataType.TEXT) declare method: string | null;
  @Column(DataType.TEXT) declare path: string | null;
  @Column(DataType.INTEGER) declare statusCode: number | null;
  @Column(DataType.TEXT) declare correlationId: string | null;
  @Column(DataType.JSONB) declare body: unknown;
  @Column(DataType.JSONB) declare values: Record<string, unknown> | null;
}
