import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:public';
/** A route that needs no sign-in (settings, health, the OpenAPI document). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
