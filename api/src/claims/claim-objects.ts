import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CLAIM_RULES, canClaim, canSeeClaim, isClaimObjectType, type ClaimObjectKind, type UserContext } from '@crisis/forms';
import { abilityFor } from '../auth/abilities.guard';
import { CasesService } from '../cases/cases.service';
import { forbidden, invalid, notFound } from '../common/coded-error';
import { parseId } from '../common/id-param';

/**
 * The claim rules (forms/src/claims.ts) applied to one user and one object: the role must have
 * the rule's ability, and the object must exist and be in her scope. Answers as the scoped case
 * routes do: 404 NTFND for an object that does not exist (or an id that cannot name one), 403 FRBD
 * for one she may not use.
 */
@Injectable()
export class ClaimObjects {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly cases: CasesService,
  ) {}

  /**
   * Before claiming or renewing: she may edit the object. Returns the object id as claims store it
   * (the record id in canonical form: "017", "17" and 17 are one object).
   */
  async assertMayEdit(user: UserContext, objectType: string, objectId: string): Promise<string> {
    const type = this.typeOf(objectType);
    if (!canClaim(abilityFor(user), type)) throw forbidden();
    return this.inScope(user, CLAIM_RULES[type].object, objectId);
  }

  /** Before naming the holder: she may see the object. Returns the stored form of the object id. */
  async assertMaySee(user: UserContext, objectType: string, objectId: string): Promise<string> {
    const type = this.typeOf(objectType);
    if (!canSeeClaim(abilityFor(user), type)) throw forbidden();
    return this.inScope(user, CLAIM_RULES[type].object, objectId);
  }

  private typeOf(objectType: string) {
    // The schema admits only the rules' types; this guards the service's other callers.
    if (!isClaimObjectType(objectType)) throw invalid([{ field: 'objectType', key: 'enum', message: 'Not an object that can be claimed' }]);
    return objectType;
  }

  private async inScope(user: UserContext, kind: ClaimObjectKind, objectId: string): Promise<string> {
    const id = parseId(objectId);
    switch (kind) {
      case 'case':
        // The case routes' own check (case-scope.ts): NTFND when missing, FRBD out of scope.
        await this.cases.findInScope(user, id);
        return String(id);
      case 'referringDivision': {
        // Placement tasks belong to referring divisions; the roles the rule lets claim them (ITP
        // staff) place patients in any of them, so existence is the whole scope.
        const [row] = await this.sequelize.query(`SELECT 1 FROM divisions WHERE id = $1 AND type = 'Referring'`, {
          bind: [id],
          type: QueryTypes.SELECT,
        });
        if (!row) throw notFound();
        return String(id);
      }
    }
  }
}
