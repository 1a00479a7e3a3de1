import { Module } from '@nestjs/common';
import { AddressController } from './address.controller';
import { AddressService } from './address.service';

/** Address look-ups (ZIP, city, county, street) from a local US data set. */
@Module({
  controllers: [AddressController],
  providers: [AddressService],
})
export class AddressModule {}
