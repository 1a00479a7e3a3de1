import { Column, DataType, Model, Table } from 'sequelize-typescript';

/** The single integrated telehealth partner organization of a deployment. */
@Table({ tableName: 'itp_organization' })
export class ItpOrganization extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.INTEGER }) declare id: number;
  @Column(DataType.TEXT) declare name: string;
  @Column(DataType.TEXT) declare erLine: string | null;
  @Column(DataType.BOOLEAN) declare mfaEnabled: boolean;
  @Column(DataType.BOOLEAN) declare ipWhiteListEnabled: boolean;
  @Column(DataType.TEXT) declare ipAddresses: string | null;
}
