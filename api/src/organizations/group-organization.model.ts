import { Column, DataType, Model, Table } from 'sequelize-typescript';

@Table({ tableName: 'group_organizations' })
export class GroupOrganization extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.INTEGER }) declare id: number;
  @Column(DataType.TEXT) declare name: string;
  @Column(DataType.TEXT) declare description: string | null;
  @Column(DataType.BOOLEAN) declare isActive: boolean;
  @Column(DataType.ARRAY(DataType.TEXT)) declare states: string[];
  @Column(DataType.ARRAY(DataType.TEXT)) declare counties: string[];
  @Column(DataType.BOOLEAN) declare mfaEnabled: boolean;
}
