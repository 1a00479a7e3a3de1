import { StreamableFile } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'stream';
import { CodedError, type UserContext } from '@crisis/forms';
import { requestContext } from '../common/request-context';
import type { AuditService } from './audit.service';

/** The common part of the audit entry of a read of patient data (ARCHITECTURE "Audit"): who read what, where. */
export function readEntry(mainAction: string, req: FastifyRequest, user: UserContext) {
  return { mainAction, kind: 'Read', user, method: 'GET', path: req.url.split('?')[0], correlationId: requestContext.getStore()?.correlationId };
}

/**
 * Streams an export as an attachment and writes its read audit entry: on success with the values
 * the export adds (patient, facility), on failure with the failure's status, then rethrows.
 */
export async function auditedExport(
  audit: AuditService,
  read: { action: string; req: FastifyRequest; user: UserContext; values: Record<string, unknown> },
  produce: () => Promise<{ stream: Readable; facilityId?: number | null; values?: Record<string, unknown> }>,
  file: { name: string; type: string },
): Promise<StreamableFile> {
  const base = readEntry(read.action, read.req, read.user);
  try {
    const { stream, facilityId, values } = await produce();
    await audit.record({ ...base, success: true, statusCode: 200, values: { ...read.values, ...values }, facilityId: facilityId ?? undefined });
    return new StreamableFile(stream, { type: file.type, disposition: `attachment; filename="${file.name}"` });
  } catch (err) {
    const status = err instanceof CodedError ? err.status : 500;
    await audit.record({ ...base, success: false, statusCode: status, values: read.values }).catch(() => undefined);
    throw err;
  }
}
