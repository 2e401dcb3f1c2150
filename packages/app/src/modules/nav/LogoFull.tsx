import { configApiRef, useApi } from '@backstage/frontend-plugin-api';
import { makeStyles, Typography } from '@material-ui/core';

const useStyles = makeStyles({
  title: {
    color: '#7df3e1',
    fontWeight: 700,
    whiteSpace: 'nowrap',
  },
});

/** The product's name (`app.title`, the one the sign-in page shows) as the open sidebar's logo. */
export const LogoFull = () => {
  const classes = useStyles();
  const title =
    useApi(configApiRef).getOptionalString('app.title') ?? 'Backstage';
  return (
    <Typography variant="h5" component="span" className={classes.title}>
      {title}
    </Typography>
  );
};
