import { Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import { Edit, useRecordContext } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { PageTitle } from '../common/PageTitle';
import { RemoveTagButton } from './PatientTagList';

function Detail() {
  const record = useRecordContext<{ id: number; name: string }>();
  const navigate = useNavigate();
  if (!record) return null;
  return (
    <Card>
      <CardContent>
        <Typography variant="caption" color="text.secondary">
          Name
        </Typography>
        <Typography variant="body1" data-testid="patient-tag-detail-name">
          {record.name}
        </Typography>
      </CardContent>
      <CardActions>
        <Button variant="outlined" onClick={() => navigate('/patient-tags')}>
          Back
        </Button>
        <RemoveTagButton />
      </CardActions>
    </Card>
  );
}

/**
 * /patient-tags/{id}: a tag is created and removed, never edited (spec 03 §6, §7: no PUT), so the
 * detail shows the name with the remove action.
 */
export function PatientTagShow() {
  return (
    <Edit title=" " component="div" actions={false}>
      <PageTitle title="Patient tag" />
      <Detail />
    </Edit>
  );
}
