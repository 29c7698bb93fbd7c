import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType()
export class MemberQrCode {
  @Field(() => ID) memberId: string;
  @Field({ description: 'A PNG image of the member identity QR code, as a data URL the client can show' }) qrCodeUrl: string;
}
