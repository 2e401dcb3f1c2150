import { makeStyles } from '@material-ui/core';
import ModelIcon from '@material-ui/icons/Memory';

const useStyles = makeStyles({
  icon: {
    color: '#7df3e1',
    fontSize: 28,
  },
});

/** The closed sidebar's logo: the Models page's icon, not another product's. */
export const LogoIcon = () => {
  const classes = useStyles();
  return <ModelIcon className={classes.icon} />;
};
