import { Controller, HttpCode, Inject, Param, Req, Res } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'crypto';
import { Sequelize } from 'sequelize-typescript';
import { QueryTypes } from 'sequelize';
import { ErrorCode, UPLOAD_MAX_BYTES, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { UserContextService } from '../auth/user-context.service';
import { afterCommit } from '../common/after-commit';
import { notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { FILE_STORAGE, sendStored, type FileStorage } from '../files/storage';
import { fileError, peekUpload, singleFile, storeUpload } from '../files/upload';
import { Route } from '../common/route';

const AREA = 'avatars';
const TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;
type Ext = keyof typeof TYPES;
export const AVATAR_REFERENCE = /^avatar-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|gif|webp)$/;

/** The image type by its first bytes (magic numbers), whatever the name or declared type say. */
export function sniffImage(head: Buffer): Ext | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.length >= 6 && ['GIF87a', 'GIF89a'].includes(head.subarray(0, 6).toString('latin1'))) return 'gif';
  if (head.length >= 12 && head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}

/** Avatars (spec 03 §3 User avatar, §7 store avatar, GET /api/avatar/{reference}): images only, up to 20 MB, streamed to storage. */
@ApiTags('users')
@Controller('api')
export class AvatarController {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly contexts: UserContextService,
  ) {}

  @Route('POST', 'user/avatar', 'update', 'Profile', 'User.StoreAvatar')
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ description: '{ avatar }: the new reference (avatar-<uuid>.<ext>) of the signed-in user' })
  @ApiBadRequestResponse({ description: 'INV: no file, empty, not a PNG/JPEG/GIF/WebP image by content, or over 20,971,520 bytes' })
  async store(@Req() req: FastifyRequest, @CurrentUser() user: UserContext) {
    const part = await singleFile(req);
    const { head, source } = await peekUpload(part, 12);
    const ext = sniffImage(head);
    if (!ext) {
      part.file.resume();
      throw fileError('imagesOnly', 'Only images (PNG, JPEG, GIF or WebP) can be avatars');
    }
    const reference = `avatar-${randomUUID()}.${ext}`;
    await storeUpload(this.storage, AREA, reference, part, source, UPLOAD_MAX_BYTES);
    const [row] = await this.sequelize.query<{ avatar: string | null }>('SELECT avatar FROM users WHERE id = :id FOR UPDATE', {
      replacements: { id: user.id },
      type: QueryTypes.SELECT,
    });
    await this.sequelize.query('UPDATE users SET avatar = :reference, updated_at = now() WHERE id = :id', {
      replacements: { reference, id: user.id },
    });
    auditValues({ userId: user.id, avatar: reference });
    const old = row?.avatar;
    await afterCommit('remove the previous avatar', async () => {
      this.contexts.invalidate(user.id);
      if (old && AVATAR_REFERENCE.test(old)) await this.storage.remove(AREA, old);
    });
    return { avatar: reference };
  }

  @Route('GET', 'avatar/:reference', 'read', 'Profile')
  @ApiParam({ name: 'reference', type: String, description: 'avatar-<uuid>.<png|jpg|gif|webp>' })
  @ApiOkResponse({ description: 'The image' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async get(@Param('reference') reference: string, @Res() reply: FastifyReply) {
    if (!AVATAR_REFERENCE.test(reference)) throw notFound();
    const file = await this.storage.get(AREA, reference);
    if (!file) throw notFound();
    const ext = reference.split('.').pop() as Ext;
    return sendStored(reply, file, TYPES[ext], 'private, max-age=86400, immutable');
  }
}
