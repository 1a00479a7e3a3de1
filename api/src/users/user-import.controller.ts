import { Controller, Get, Header, HttpCode, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { USER_IMPORT_TEMPLATE_FILE, type UserContext } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';
import { auditValues } from '../common/request-context';
import { readWhole, singleFile } from '../files/upload';
import { UserImportService } from './user-import.service';
import { Route } from '../common/route';

const FILE_BODY = {
  schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'The CSV file (template columns)' } } },
};

async function csvUpload(req: FastifyRequest) {
  const part = await singleFile(req);
  const data = await readWhole(part);
  return { filename: part.filename, mimetype: part.mimetype, data };
}

/** User CSV import (spec 03 §2 /users import dialog, §5 User import, §7). */
@ApiTags('users')
@Controller()
export class UserImportController {
  constructor(private readonly imports: UserImportService) {}

  @Get(USER_IMPORT_TEMPLATE_FILE)
  @CheckAbility('create', 'User')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', `attachment; filename="${USER_IMPORT_TEMPLATE_FILE}"`)
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The CSV template: firstName,lastName,email,phone,jobTitle,organizationType,organization,userType,divisions' })
  template(): string {
    return this.imports.template();
  }

  @Route('POST', 'api/user/import/validate', 'create', 'User', 'User.ImportValidate')
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_BODY)
  @ApiOkResponse({ description: 'A list of error strings, one per problem, naming the row ("Row 3: email is required"); empty when the file can be imported' })
  @ApiBadRequestResponse({ description: "INV: no file, an empty or too big file, or 'Must be CSV file'" })
  async validate(@Req() req: FastifyRequest, @CurrentUser() user: UserContext): Promise<string[]> {
    const { errors, users } = await this.imports.plan(await csvUpload(req), user);
    auditValues({ rows: users.length, errors: errors.length });
    return errors;
  }

  @Route('POST', 'api/user/import', 'create', 'User', 'User.Import')
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_BODY)
  @ApiOkResponse({ description: '{ imported, ids }: every row invited (as POST /api/user/invite) in one transaction' })
  @ApiBadRequestResponse({ description: 'INV with the list of errors as payload when validation finds any; nothing is created' })
  async import(@Req() req: FastifyRequest, @CurrentUser() user: UserContext) {
    const result = await this.imports.import(await csvUpload(req), user);
    auditValues({ imported: result.imported, userIds: result.ids });
    return result;
  }
}
