import { Column, DataType, Model, Table } from 'sequelize-typescript';

export type Channel = 'email' | 'sms' | 'call';

/** An e-mail, SMS or phone call: sent through SMTP / Twilio when configured, always recorded here. */
@Table({ tableName: 'outbox_messages' })
export class OutboxMessage extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.BIGINT }) declare id: string;
  @Column(DataType.TEXT) declare channel: Channel;
  @Column(DataType.TEXT) declare recipient: string;
  @Column(DataType.TEXT) declare sender: string | null;
  @Column(DataType.TEXT) declare subject: string | null;
  @Column(DataType.TEXT) declare body: string;
  /** queued (outbox only), sent, delivered, failed, answered ... */
  @Column(DataType.TEXT) declare status: string;
  @Column(DataType.TEXT) declare providerId: string | null;
  @Column(DataType.INTEGER) declare userId: number | null;
  /** Why it was sent: mfa-code, invitation, password-reset, notification ... */
  @Column(DataType.TEXT) declare purpose: string | null;
  /** For calls: the key the callee pressed. */
  @Column(DataType.TEXT) declare response: string | null;
}
