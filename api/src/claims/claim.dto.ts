import { ApiProperty } from '@nestjs/swagger';

/** A claim (lease) on an object under edit, as the claims API returns it. */
export class ClaimDto {
  @ApiProperty({ type: 'integer', example: 42 }) id!: number;
  @ApiProperty({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'As claimed; a positive integer comes back as a number',
    example: 17,
  })
  objectId!: number | string;
  @ApiProperty({ example: 'MedicalInformation' }) objectType!: string;
  @ApiProperty({ type: 'integer', description: 'The holder (user id)', example: 5 }) subjectId!: number;
  @ApiProperty({ description: "The holder's name", example: 'Ann Lee' }) subjectName!: string;
  @ApiProperty({ format: 'date-time' }) claimedAt!: string;
  @ApiProperty({ format: 'date-time', description: 'The claim lapses then unless extended' }) expiresAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) releasedAt!: string | null;
  @ApiProperty({
    enum: ['released', 'expired', 'holderInactive'],
    nullable: true,
    type: String,
    description: 'holderInactive: the holder was deactivated, which frees her claims',
  })
  releaseReason!: string | null;
}
