import { Column, DataType, HasMany, Model, Table } from 'sequelize-typescript';
import { Division } from './division.model';

export interface Contacts {
  phone1?: string | null; phone1Ext?: string | null; phone2?: string | null; phone2Ext?: string | null;
  fax1?: string | null; fax1Ext?: string | null; fax2?: string | null; fax2Ext?: string | null;
}

@Table({ tableName: 'facilities' })
export class Facility extends Model {
  @Column({ primaryKey: true, autoIncrement: true, type: DataType.INTEGER }) declare id: number;
  @Column(DataType.TEXT) declare name: string;
  @Column(DataType.TEXT) declare description: string | null;
  @Column(DataType.BOOLEAN) declare allowReferringDivisionsAccess: boolean;
  @Column(DataType.BOOLEAN) declare allowPlacementOnlyCases: boolean;
  @Column(DataType.BOOLEAN) declare isActive: boolean;
  @Column(DataType.TEXT) declare streetLine: string;
  @Column(DataType.TEXT) declare apartmentNumber: string | null;
  @Column(DataType.TEXT) declare city: string;
  @Column(DataType.TEXT) declare state: string;
  @Column(DataType.TEXT) declare zipCode: string;
  @Column(DataType.TEXT) declare county: string | null;
  @Column(DataType.DOUBLE) declare latitude: number;
  @Column(DataType.DOUBLE) declare longitude: number;
  @Column(DataType.BOOLEAN) declare isGeoPositionManually: boolean;
  @Column(DataType.BOOLEAN) declare isMfaEnabled: boolean;
  @Column(DataType.JSONB) declare contacts: Contacts;
  @Column(DataType.TEXT) declare ehrDepartmentId: string | null;
  @Column(DataType.BOOLEAN) declare populateOutOfStateFacilities: boolean;
  @Column(DataType.BOOLEAN) declare ipWhiteListEnabled: boolean;
  @Column(DataType.TEXT) declare ipAddresses: string | null;

  @HasMany(() => Division) declare divisions?: Division[];
}
