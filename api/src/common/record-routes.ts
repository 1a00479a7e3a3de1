import { applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse } from '@nestjs/swagger';
import { ErrorCode, type Action, type SchemaName, type Subject } from '@crisis/forms';
import { ApiSchemaBody } from './openapi';
import { Route } from './route';

/**
 * The routes of one kind of record (reference data, facility tabs): read, create, update and
 * delete, each with its ability, its audit action (`<Subject>.Create` …) and its OpenAPI answers,
 * so a controller method carries one decorator.
 */
export interface RecordKind {
  subject: Subject;
  /** How the answers name one record ("payer", "group organization"). */
  noun: string;
  /** The record's OpenAPI schema. */
  schema: object;
  /** The forms/ schema of the body of create and update. */
  body?: SchemaName;
  /** What a 409 means for create and update. */
  conflict?: string;
  /** The ability create, update and delete need (default manage). */
  action?: Action;
}

const conflict = (k: RecordKind) => (k.conflict ? [ApiConflictResponse({ description: k.conflict })] : []);
const body = (k: RecordKind) => (k.body ? [ApiSchemaBody(k.body)] : []);

export const ReadRecord = (k: RecordKind, path = ':id', action: Action = k.action ?? 'manage') =>
  applyDecorators(
    Route('GET', path, action, k.subject),
    ApiOkResponse({ description: `The ${k.noun}`, schema: k.schema }),
    ApiNotFoundResponse({ description: ErrorCode.NotFound }),
  );

export const CreateRecord = (k: RecordKind, path = '') =>
  applyDecorators(
    Route('POST', path, k.action ?? 'manage', k.subject, `${k.subject}.Create`),
    ...body(k),
    ApiCreatedResponse({ description: `The created ${k.noun}`, schema: k.schema }),
    ...conflict(k),
  );

export const UpdateRecord = (k: RecordKind, path = ':id') =>
  applyDecorators(
    Route('PUT', path, k.action ?? 'manage', k.subject, `${k.subject}.Update`),
    ...body(k),
    ApiOkResponse({ description: `The updated ${k.noun}`, schema: k.schema }),
    ApiNotFoundResponse({ description: ErrorCode.NotFound }),
    ...conflict(k),
  );

export const DeleteRecord = (k: RecordKind, path = ':id') =>
  applyDecorators(
    Route('DELETE', path, k.action ?? 'manage', k.subject, `${k.subject}.Delete`),
    ApiOkResponse({ description: `The removed ${k.noun}`, schema: k.schema }),
    ApiNotFoundResponse({ description: ErrorCode.NotFound }),
  );
