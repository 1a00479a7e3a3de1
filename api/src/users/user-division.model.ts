import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import { Division } from '../facilities/division.model';
import { User } from './user.model';

@Table({ tableName: 'user_divisions', timestamps: false })
export class UserDivision extends Model {
  @ForeignKey(() => User) @Column({ primaryKey: true, type: DataType.INTEGER }) declare userId: number;
  @ForeignKey(() => Division) @Column({ primaryKey: true, type: DataType.INTEGER }) declare divisionId: number;
}
